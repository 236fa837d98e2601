// Test certificates for the HTTPS feed: a store CA and one leaf per till (CN = till id), P-256, made with
// the openssl CLI for the spike only. The design (docs/store-mode.md) derives the CA key from the store
// secret and mints leaves in-process; the TLS cost measured here is the same either way.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ossl = (args, dir) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });

export function makeCerts(dir, tills = ['till-a', 'till-b'], caName = 'store-ca') {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, `${caName}.key`))) {
    ossl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${caName}.key`], dir);
    ossl(['req', '-x509', '-new', '-key', `${caName}.key`, '-subj', `/CN=${caName}`, '-days', '2', '-out', `${caName}.crt`], dir);
  }
  for (const t of tills) {
    if (existsSync(join(dir, `${t}.crt`))) continue;
    ossl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${t}.key`], dir);
    ossl(['req', '-new', '-key', `${t}.key`, '-subj', `/CN=${t}`, '-out', `${t}.csr`], dir);
    writeFileSync(join(dir, `${t}.ext`), `subjectAltName=IP:127.0.0.1,DNS:${t}\nextendedKeyUsage=serverAuth,clientAuth\n`);
    ossl(['x509', '-req', '-in', `${t}.csr`, '-CA', `${caName}.crt`, '-CAkey', `${caName}.key`, '-CAcreateserial',
      '-days', '2', '-extfile', `${t}.ext`, '-out', `${t}.crt`], dir);
  }
}

export function tlsFiles(dir, till, caName = 'store-ca') {
  const r = (f) => readFileSync(join(dir, f));
  return { ca: r(`${caName}.crt`), cert: r(`${till}.crt`), key: r(`${till}.key`) };
}
