/** The shape of an example fragment, apart from how fragments are derived (derive.ts), so the quarantine can hold them. */

export type FragmentKind = 'url' | 'url_path' | 'file_name' | 'identifier' | 'number' | 'word' | 'pair';

/** One distinctive piece: its text (lower-cased), its kind, and the example path it came from. */
export interface ExampleFragment {
  readonly text: string;
  readonly kind: FragmentKind;
  readonly path: string;
}
