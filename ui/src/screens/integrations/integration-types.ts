/** An integration (Unleash's "addon"): a provider such as `webhook`, its parameters and what it listens to. */
export interface Integration {
  id: number;
  provider: string;
  description: string | null;
  enabled: boolean;
  /** Sensitive ones read back as `*****`; sent back so, they keep what is stored. */
  parameters: Record<string, string>;
  events: string[];
  projects: string[];
  environments: string[];
}

export interface ProviderParameter {
  name: string;
  displayName: string;
  type: string;
  description: string;
  placeholder?: string;
  required: boolean;
  sensitive: boolean;
}

export interface Provider {
  name: string;
  displayName: string;
  description: string;
  parameters: ProviderParameter[];
  events: string[];
}

export interface IntegrationList {
  addons: Integration[];
  providers: Provider[];
}

/** Names typed as a comma-separated list; none (or `*`) means all. */
export const namesFromText = (text: string) =>
  text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
