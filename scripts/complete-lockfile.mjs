// Records optional platform packages that this machine's registry does not carry (other OSes and CPUs) in
// package-lock.json, so `npm ci` validates the lock everywhere. Run `npm run lockfile` after every `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';
const path = process.argv[2] || 'package-lock.json';
const lock = JSON.parse(readFileSync(path, 'utf8'));
const pkgs = lock.packages;
const guess = (name) => {
  const n = name.toLowerCase();
  const os = ['android','darwin','freebsd','linux','win32','openbsd','sunos','aix','netbsd'].find((o) => n.includes(o)) ;
  const cpu = ['arm64','x64','ia32','arm','ppc64','s390x','riscv64','loong64','mips64el','wasm32'].find((c) => n.includes(c));
  return { os, cpu };
};
let added = 0;
for (const [key, entry] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = key === '' ? '' : `${key}/`;
    const candidates = [`${base}node_modules/${dep}`, `node_modules/${dep}`];
    if (candidates.some((c) => pkgs[c])) continue;
    const { os, cpu } = guess(dep);
    const record = { version: version.replace(/^[\^~]/, ''), optional: true };
    if (os) record.os = [os];
    if (cpu) record.cpu = [cpu === 'wasm32' ? 'wasm32' : cpu];
    pkgs[`node_modules/${dep}`] = record;
    added++;
  }
}
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} entries`);
