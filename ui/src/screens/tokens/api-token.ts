/** An API token as the lists show it: the secret masked after its scope. */
export interface ApiToken {
  id: number;
  secret: string;
  tokenName: string;
  type: string;
  environment: string;
  projects: string[];
  expiresAt: string | null;
  createdAt: string;
  seenAt: string | null;
}

/** The kinds of token an SDK uses, as a project offers them. */
export const SDK_TOKEN_KINDS = [
  { value: 'client', label: 'Client: server-side SDKs' },
  { value: 'frontend', label: 'Frontend: browser and mobile SDKs' },
];
