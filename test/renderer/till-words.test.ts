// The sync panel says a peer's last failure as what a person can check, not as Node's error text.
import { describe, expect, it } from 'vitest';
import { problemWords } from '../../renderer/store-mode/till-words';

describe('problemWords', () => {
  it.each([
    ['connect ECONNREFUSED 10.0.0.5:7420', 'Nothing answers at 10.0.0.5:7420: the till is off, or its app is closed.'],
    ['connect EHOSTUNREACH 10.0.0.5:7420', 'It cannot be reached on the network: check its cable or Wi-Fi.'],
    ['getaddrinfo ENOTFOUND bar.local', 'Its address is not found on the network: check the peer list.'],
    ['Connect Timeout Error (attempted address: 10.0.0.5:7420, timeout: 10000ms)', 'It does not answer in time: it may be off, or off the network.'],
    ['self-signed certificate in certificate chain', 'The connection was refused while connecting: the two tills may not have the same store secret.'],
    ['other side closed', 'The connection was cut: it may be restarting.'],
  ])('%s', (problem, words) => {
    expect(problemWords(problem)).toBe(words);
  });

  it('keeps words that are plain already', () => {
    expect(problemWords('this till is already followed at another address')).toBe('this till is already followed at another address');
  });
});
