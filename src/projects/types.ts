export interface Project {
  id: string;
  name: string;
  description: string | null;
  mode: string;
  defaultStickiness: string;
  createdAt: Date;
  updatedAt: Date | null;
}
