import { StreamLanguage } from '@codemirror/language';
import { shell } from '@codemirror/legacy-modes/mode/shell';
import { Compartment, EditorState } from '@codemirror/state';
import { oneDark } from '@codemirror/theme-one-dark';
import { EditorView } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { useSettings } from '../../services/settings';
import './code-editor.css';

type Props = {
  value: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  /** the accessible name of the editing surface */
  label: string;
  minHeight?: number;
  maxHeight?: number;
};

const shellLanguage = StreamLanguage.define(shell);

/**
 * A shell-script editor (CodeMirror 6): line numbers, highlighting, bracket matching, undo history, search
 * and the editor's usual keys; follows the app's dark mode. Only the pages that edit scripts load it.
 */
export function CodeEditor({ value, onChange, readOnly = false, label, minHeight = 240, maxHeight = 520 }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const theme = useRef(new Compartment());
  const dark = useSettings((s) => s.theme === 'dark');

  // biome-ignore lint/correctness/useExhaustiveDependencies: the editor is created once; value and theme follow below
  useEffect(() => {
    if (!host.current) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          basicSetup,
          shellLanguage,
          EditorState.readOnly.of(readOnly),
          EditorView.editable.of(!readOnly),
          EditorView.contentAttributes.of({ 'aria-label': label }),
          EditorView.theme({
            '&': { minHeight: `${minHeight}px`, maxHeight: `${maxHeight}px`, fontSize: '13px' },
            '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', overflow: 'auto' },
          }),
          theme.current.of(dark ? oneDark : []),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed.current?.(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
  }, []);

  // a value set from outside (another version opened) replaces the text; typing does not come back here
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: theme.current.reconfigure(dark ? oneDark : []) });
  }, [dark]);

  return <div ref={host} className="code-editor" data-testid="code-editor" />;
}
