/** A strategy type (the `strategies` table): its name and the parameters it takes. */
export interface StrategyDefinition {
  name: string;
  title: string | null;
  description: string | null;
  parameters: { name: string; type: string; description: string; required: boolean }[];
  builtIn: boolean;
  deprecated: boolean;
}
