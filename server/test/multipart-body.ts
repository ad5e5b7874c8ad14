import crypto from 'node:crypto';
import type { SignedIn } from './test-app';

export interface MultipartFile {
  fileName: string;
  contentType: string;
  content: Buffer;
}

/** A multipart/form-data body for API tests, as a browser's FormData would send it. */
export function multipartBody(
  fields: Record<string, string | number>,
  files: Record<string, MultipartFile> = {},
) {
  const boundary = `----wm${crypto.randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  for (const [name, file] of Object.entries(files)) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file.fileName}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
    );
    chunks.push(file.content, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Posts a spreadsheet as the import screen does: the file under `file`, the screen's options as fields. */
export function postSheet(
  as: Pick<SignedIn, 'request'>,
  url: string,
  content: Buffer,
  sheet: { fileName: string; contentType: string; fields?: Record<string, string> },
) {
  return as.request({
    method: 'POST',
    url,
    ...multipartBody(sheet.fields ?? {}, {
      file: { fileName: sheet.fileName, contentType: sheet.contentType, content },
    }),
  });
}
