/** Outline icons drawn with the text colour, so the active row's inverse colours carry over. */
const SHAPES: Record<string, string> = {
  folder: 'M1.5 3.5h4.5l1.5 1.5h7v8.5h-13z',
  file: 'M3.5 1.5h6l3 3v10h-9zM9.5 1.5v3h3',
  'repository-local':
    'M2.5 3.5c0-2 11-2 11 0v9c0 2-11 2-11 0zM2.5 3.5c0 2 11 2 11 0M2.5 8c0 2 11 2 11 0',
  'repository-remote':
    'M8 1.5a6.5 6.5 0 1 0 0.01 0zM1.5 8h13M8 1.5c-3 3.5-3 9.5 0 13M8 1.5c3 3.5 3 9.5 0 13',
  'repository-virtual': 'M1.5 4.5h8v8h-8zM6.5 1.5h8v8h-3',
  trash: 'M2.5 4.5h11M6 4.5v-2h4v2M3.5 4.5l1 10h7l1-10M6.5 7v5M9.5 7v5',
};

export function TreeIcon({ kind }: { kind: string }) {
  return (
    <svg
      className="tree-icon"
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
    >
      <path d={SHAPES[kind] ?? SHAPES.file} fill="none" stroke="currentColor" strokeWidth="1.2" />
    </svg>
  );
}
