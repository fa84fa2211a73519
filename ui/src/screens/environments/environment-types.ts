/** The types Unleash's SDKs and integrations know; others are kept as typed. */
export const ENVIRONMENT_TYPES = [
  { value: 'development', label: 'Development' },
  { value: 'test', label: 'Test' },
  { value: 'preproduction', label: 'Pre-production' },
  { value: 'production', label: 'Production (changes ask first)' },
];

export interface AdminEnvironment {
  name: string;
  type: string;
  enabled: boolean;
  protected: boolean;
  sortOrder: number;
  projectCount: number;
  apiTokenCount: number;
  enabledToggleCount: number;
}
