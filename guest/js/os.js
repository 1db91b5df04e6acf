'use strict';
// node:os — a fixed, minimal machine description (nothing of the real host).

module.exports = {
  EOL: '\n',
  platform: () => 'linux',
  type: () => 'Linux',
  arch: () => 'x64',
  release: () => '6.0.0-nook',
  version: () => '#1 nook',
  machine: () => 'x86_64',
  hostname: () => 'nook',
  homedir: () => host.root,
  tmpdir: () => host.root + '/.tmp',
  endianness: () => 'LE',
  uptime: () => 0,
  loadavg: () => [0, 0, 0],
  totalmem: () => 1024 * 1024 * 1024,
  freemem: () => 512 * 1024 * 1024,
  availableParallelism: () => 1,
  cpus: () => [{ model: 'nook', speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } }],
  networkInterfaces: () => ({}),
  userInfo: () => ({ uid: 1000, gid: 1000, username: 'nook', homedir: host.root, shell: null }),
  constants: { signals: {}, errno: {} },
  devNull: '/dev/null',
};
