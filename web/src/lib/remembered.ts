/** A small text this device remembers between visits (localStorage); storage that is off or full is ignored. */
export function readRemembered(key: string): string {
  try {
    return window.localStorage.getItem(key) ?? '';
  } catch {
    return '';
  }
}

export function remember(key: string, value: string): void {
  try {
    if (value) window.localStorage.setItem(key, value);
    else window.localStorage.removeItem(key);
  } catch {
    // private mode or a full storage: the name is simply typed again next time
  }
}
