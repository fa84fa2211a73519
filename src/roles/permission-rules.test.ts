import { describe, expect, it } from 'vitest';
import { normalizePermissions, type PermissionType } from './permission-rules.js';

const known = new Map<string, PermissionType>([
  ['CREATE_PROJECT', 'root'],
  ['CREATE_FEATURE', 'project'],
  ['UPDATE_FEATURE_ENVIRONMENT', 'environment'],
]);

describe('normalizePermissions()', () => {
  it('keeps environments only on environment permissions of project roles', () => {
    expect(
      normalizePermissions(
        'custom',
        [
          { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
          { name: 'CREATE_FEATURE', environment: 'production' },
        ],
        known,
      ),
    ).toEqual([
      { name: 'CREATE_FEATURE', environment: '' },
      { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' },
    ]);
    expect(
      normalizePermissions(
        'root-custom',
        [{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'production' }],
        known,
      ),
    ).toEqual([{ name: 'UPDATE_FEATURE_ENVIRONMENT', environment: '' }]);
  });

  it('counts repeated entries once', () => {
    const entry = { name: 'UPDATE_FEATURE_ENVIRONMENT', environment: 'development' };
    expect(normalizePermissions('custom', [entry, entry], known)).toHaveLength(1);
    expect(
      normalizePermissions('root-custom', [{ name: 'CREATE_PROJECT' }, { name: 'CREATE_PROJECT' }], known),
    ).toEqual([{ name: 'CREATE_PROJECT', environment: '' }]);
  });

  it('refuses unknown names, naming each, and root permissions in project roles', () => {
    expect(() => normalizePermissions('custom', [{ name: 'FLY' }, { name: 'SWIM' }], known)).toThrow(
      /FLY, SWIM/,
    );
    expect(() => normalizePermissions('custom', [{ name: 'CREATE_PROJECT' }], known)).toThrow(/root-custom/);
    expect(normalizePermissions('root-custom', [{ name: 'CREATE_PROJECT' }], known)).toHaveLength(1);
  });
});
