// A store-mode address: "host:port" or "[v6]:port", as the puller's URL carries it, and as node's net calls take it.

export function splitAddress(address: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(address);
  if (!match) throw new Error(`not a host:port address: ${address}`);
  return { host: match[1] ?? match[2] ?? '', port: Number(match[3]) };
}

/** The "host:port" a puller and its URL take, brackets around an IPv6 host. */
export function joinAddress({ host, port }: { host: string; port: number }): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
