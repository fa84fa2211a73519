// The npm registry this project is built against serves native binaries only for the platforms it
// runs on, so `npm install` leaves the other platforms' optional packages (biome, rollup, esbuild
// builds for macOS, Windows, …) out of package-lock.json, and `npm ci` then refuses the lock file.
// This adds the missing entries, with the platform read from the package name, so `npm ci` skips
// them here and installs the right one elsewhere. Run it after changing dependencies.
import { readFileSync, writeFileSync } from 'node:fs';

const OS = [
  'android',
  'darwin',
  'linux',
  'win32',
  'freebsd',
  'openbsd',
  'netbsd',
  'openharmony',
  'sunos',
  'aix',
];
const CPU = ['arm64', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'arm'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = OS.find((o) => parts.includes(o));
  const cpu = CPU.find((c) => parts.includes(c) || parts.some((p) => p.startsWith(c)));
  const entry = { os: [os ?? 'none'], cpu: [cpu ?? 'none'] };
  if (os === 'linux') entry.libc = [parts.some((p) => p.startsWith('musl')) ? 'musl' : 'glibc'];
  return entry;
}

const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
const packages = lock.packages;
const added = [];
for (const [path, meta] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const nested = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (packages[nested] || packages[hoisted]) continue;
    packages[hoisted] = { version, ...(meta.dev ? { dev: true } : {}), optional: true, ...platformOf(dep) };
    added.push(dep);
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync('package-lock.json', `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added.length} entries${added.length ? `: ${added.join(', ')}` : ''}`);
