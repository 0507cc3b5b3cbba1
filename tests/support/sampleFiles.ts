/** Small files of each accepted type (just enough bytes to carry their signatures), for upload tests. */
export const SAMPLE_FILES = {
  pdf: Buffer.from("%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n", "latin1"),
  png: Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from("\x00\x00\x00\x0dIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00", "latin1"),
  ]),
  jpeg: Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9", "latin1"),
  ]),
  webp: Buffer.from("RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00", "latin1"),
  heic: Buffer.from("\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic", "latin1"),
};
