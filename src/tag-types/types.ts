export interface TagType {
  name: string;
  description: string | null;
  icon: string | null;
}
