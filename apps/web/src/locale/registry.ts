type Messages = { 'zh-CN': Record<string, string>; 'en-US': Record<string, string> };
type Sink = (lang: string, bundle: Record<string, string>) => void;
type Registry = { pending: [string, Record<string, string>][]; sink?: Sink };

/**
 * Where page strings go: i18next, once `connectMessages` is called by the app's start-up
 * (locale/index.ts); bundles registered before that wait. This module does not import i18next: a
 * lazily loaded page chunk that evaluated it before i18next's own module had run met a half-made
 * binding (`addResources is not a function`) and the page fell over. Kept on `globalThis`, so a copy of
 * this module inlined into another chunk shares it.
 */
function registry(): Registry {
  const holder = globalThis as { __atriumMessages?: Registry };
  if (!holder.__atriumMessages) holder.__atriumMessages = { pending: [] };
  return holder.__atriumMessages;
}

/**
 * Adds a page's strings in both languages when its chunk loads, so the sign-in bundle never carries
 * them and the shared locale files stay small. Switching language later finds them already there.
 */
export function registerMessages(messages: Messages) {
  const { sink, pending } = registry();
  for (const [lang, bundle] of Object.entries(messages)) {
    if (sink) sink(lang, bundle);
    else pending.push([lang, bundle]);
  }
}

/** Called once i18next is initialised: adds what waited, and everything registered from then on. */
export function connectMessages(sink: Sink) {
  const r = registry();
  r.sink = sink;
  for (const [lang, bundle] of r.pending.splice(0)) sink(lang, bundle);
}
