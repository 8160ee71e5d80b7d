/** A multipart/form-data body for app.inject (one file field), as a browser's FormData would send it. */
export function multipartBody(
  file: { field?: string; fileName: string; mimeType: string; content: Buffer | string },
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----parley${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.fileName}"\r\n` +
      `Content-Type: ${file.mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const content = typeof file.content === 'string' ? Buffer.from(file.content) : file.content;
  return {
    payload: Buffer.concat([head, content, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}
