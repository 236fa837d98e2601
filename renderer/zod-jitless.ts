// The page runs under a CSP without 'unsafe-eval'. zod decides whether to compile parsers with
// `new Function` when each schema is built, i.e. while the bridge contract is being imported, so
// this module must be evaluated before any schema exists: main.tsx imports it first.
import { z } from 'zod';

z.config({ jitless: true });
