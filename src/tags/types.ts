export interface Tag {
  type: string;
  value: string;
}
