import { describe, expect, it } from 'vitest';
import type { Grant, Identity } from './identity.js';
import { assertPermission, can } from './permissions.js';

function user(grants: Grant[]): Identity {
  return { kind: 'user', userId: 7, name: 'u', rootRoleId: 3, grants, privateProjects: 'all', via: 'pat' };
}
const root = (permission: string): Grant => ({ permission, project: null, environment: '' });
const inProject = (permission: string, project: string, environment = ''): Grant => ({
  permission,
  project,
  environment,
});

describe('can()', () => {
  it('lets ADMIN do everything, anywhere', () => {
    const admin = user([root('ADMIN')]);
    expect(can(admin, 'CREATE_ROLE')).toBe(true);
    expect(can(admin, 'UPDATE_FEATURE', { project: 'p', environment: 'production' })).toBe(true);
  });

  it('applies root grants in every project and environment', () => {
    const editor = user([root('UPDATE_FEATURE')]);
    expect(can(editor, 'UPDATE_FEATURE', { project: 'any', environment: 'production' })).toBe(true);
    expect(can(editor, 'UPDATE_FEATURE')).toBe(true);
    expect(can(editor, 'DELETE_FEATURE', { project: 'any' })).toBe(false);
  });

  it('applies project grants only in their project', () => {
    const member = user([inProject('CREATE_FEATURE', 'a')]);
    expect(can(member, 'CREATE_FEATURE', { project: 'a' })).toBe(true);
    expect(can(member, 'CREATE_FEATURE', { project: 'b' })).toBe(false);
    expect(can(member, 'CREATE_FEATURE')).toBe(false);
  });

  it('applies environment grants only in their environment', () => {
    const dev = user([inProject('UPDATE_FEATURE_ENVIRONMENT', 'a', 'development')]);
    expect(can(dev, 'UPDATE_FEATURE_ENVIRONMENT', { project: 'a', environment: 'development' })).toBe(true);
    expect(can(dev, 'UPDATE_FEATURE_ENVIRONMENT', { project: 'a', environment: 'production' })).toBe(false);
    expect(can(dev, 'UPDATE_FEATURE_ENVIRONMENT', { project: 'a' })).toBe(true);
  });

  it('gives API tokens ADMIN only when they are admin tokens', () => {
    const token = (tokenType: 'admin' | 'client'): Identity => ({
      kind: 'token',
      tokenType,
      tokenId: 1,
      name: 't',
      projects: ['*'],
      environment: '*',
    });
    expect(can(token('admin'), 'CREATE_ROLE')).toBe(true);
    expect(can(token('client'), 'CREATE_FEATURE', { project: 'default' })).toBe(false);
  });
});

describe('assertPermission()', () => {
  it('passes NONE and any one of a list', () => {
    const u = user([root('READ_CLIENT_API_TOKEN')]);
    expect(() => assertPermission(u, 'NONE')).not.toThrow();
    expect(() => assertPermission(u, ['ADMIN', 'READ_CLIENT_API_TOKEN'])).not.toThrow();
  });

  it('throws NoAccessError naming the permission and the scope', () => {
    expect(() =>
      assertPermission(user([]), 'UPDATE_FEATURE', { project: 'p', environment: 'production' }),
    ).toThrow(/"UPDATE_FEATURE" permission in the project "p" in the environment "production"/);
  });
});
