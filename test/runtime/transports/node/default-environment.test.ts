import { describe, expect, it } from 'vitest';
import { defaultEnvironment } from '../../../../runtime/transports/node/default-environment.js';

describe('defaultEnvironment', () => {
  it.skipIf(process.platform === 'win32')('passes only HOME, LOGNAME, PATH, SHELL, TERM and USER on POSIX', () => {
    const source = {
      HOME: '/home/u',
      LOGNAME: 'u',
      PATH: '/bin',
      SHELL: '/bin/sh',
      TERM: 'xterm',
      USER: 'u',
      AWS_SECRET_ACCESS_KEY: 'secret',
      NODE_OPTIONS: '--inspect',
    };
    expect(defaultEnvironment(source)).toEqual({
      HOME: '/home/u',
      LOGNAME: 'u',
      PATH: '/bin',
      SHELL: '/bin/sh',
      TERM: 'xterm',
      USER: 'u',
    });
  });

  it('omits variables that are not set', () => {
    expect(defaultEnvironment({ PATH: '/bin' })).toEqual({ PATH: '/bin' });
  });
});
