export interface BrowserResult {
  name: string;
  medianMs: number;
  samples: number[];
}

/** Screen timings in Chromium; filled in once the screens exist. */
export async function benchBrowser(baseUrl: string, email: string, password: string): Promise<BrowserResult[]> {
  void baseUrl;
  void email;
  void password;
  return [];
}
