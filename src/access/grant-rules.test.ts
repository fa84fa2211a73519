import { describe, expect, it } from 'vitest';
import type { Grant, Identity } from '../http/identity.js';
import { holdsInProject, rolesBeyondCaller } from './grant-rules.js';

function user(grants: Grant[]): Identity {
  return { kind: 'user', userId: 1, name: 'u', rootRoleId: 3, grants, privateProjects: 'all', via: 'pat' };
}

describe('holdsInProject()', () => {
  it('accepts root grants and ADMIN anywhere', () => {
    expect(
      holdsInProject(user([{ permission: 'ADMIN', project: null, environment: '' }]), 'X', 'p', ''),
    ).toBe(true);
    expect(holdsInProject(user([{ permission: 'X', project: null, environment: '' }]), 'X', 'p', 'dev')).toBe(
      true,
    );
  });

  it('needs an every-environment grant to give an every-environment permission', () => {
    const devOnly = user([{ permission: 'X', project: 'p', environment: 'dev' }]);
    expect(holdsInProject(devOnly, 'X', 'p', 'dev')).toBe(true);
    expect(holdsInProject(devOnly, 'X', 'p', 'prod')).toBe(false);
    expect(holdsInProject(devOnly, 'X', 'p', '')).toBe(false);
    const everywhere = user([{ permission: 'X', project: 'p', environment: '' }]);
    expect(holdsInProject(everywhere, 'X', 'p', 'prod')).toBe(true);
    expect(holdsInProject(everywhere, 'X', 'q', 'prod')).toBe(false);
  });

  it('lets admin tokens give anything and other tokens nothing', () => {
    const token = (tokenType: 'admin' | 'client'): Identity => ({
      kind: 'token',
      tokenType,
      tokenId: 1,
      name: 't',
      projects: ['*'],
      environment: '*',
    });
    expect(holdsInProject(token('admin'), 'X', 'p', '')).toBe(true);
    expect(holdsInProject(token('client'), 'X', 'p', '')).toBe(false);
  });
});

describe('rolesBeyondCaller()', () => {
  it('names the roles holding something the caller lacks', () => {
    const caller = user([{ permission: 'A', project: 'p', environment: '' }]);
    const small = { id: 6, name: 'small', permissions: [{ name: 'A', environment: 'dev' }] };
    const big = {
      id: 7,
      name: 'big',
      permissions: [
        { name: 'A', environment: '' },
        { name: 'B', environment: '' },
      ],
    };
    expect(rolesBeyondCaller(caller, 'p', [small, big])).toEqual([big]);
    expect(rolesBeyondCaller(caller, 'q', [small])).toEqual([small]);
  });
});
