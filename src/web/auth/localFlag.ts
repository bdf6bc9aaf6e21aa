/**
 * A yes/no note kept in localStorage under one key ('1' when set, absent when not). Storage can be
 * blocked or full; reads then answer `whenBlocked` and writes are dropped, so a note is only ever
 * a hint, never something the page depends on.
 */
export interface LocalFlag {
  isSet(): boolean;
  set(value: boolean): void;
}

export function localFlag(storage: Storage | undefined, key: string, whenBlocked: boolean): LocalFlag {
  return {
    isSet() {
      try {
        return storage?.getItem(key) === '1';
      } catch {
        return whenBlocked;
      }
    },
    set(value) {
      try {
        if (value) storage?.setItem(key, '1');
        else storage?.removeItem(key);
      } catch {
        // Storage blocked or full: the note is lost; callers treat it as a hint only.
      }
    },
  };
}
