import { useState } from 'react';

/** Copies text to the clipboard; `copied` is the text last copied (to say "copied" on its button). */
export function useCopy(): { copied: string; copy: (text: string) => Promise<void> } {
  const [copied, setCopied] = useState('');
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(text);
    } catch {
      setCopied('');
    }
  };
  return { copied, copy };
}
