export { TerminalConfig, MANAGER_PIN_HASH, type TerminalConfigInput } from './schema';
export { loadConfig, ConfigError, SETTINGS, machineConfigFile, userConfigFile, defaultDataDir, type LoadedConfig, type ConfigEnvironment } from './load';
export { hashManagerPin, hashPin, pinMatches } from './manager-pin';
