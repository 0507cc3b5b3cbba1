import { inflateSync } from "node:zlib";
import { PDFArray, PDFDocument, type PDFRawStream, PDFRef } from "pdf-lib";

/** The text a PDF's pages draw: pdf-lib writes Flate-compressed content streams with hex strings. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const pdf = await PDFDocument.load(bytes);
  const parts: string[] = [];
  for (const page of pdf.getPages()) {
    const contents = page.node.Contents();
    const refs = contents instanceof PDFArray ? contents.asArray() : [contents];
    for (const ref of refs) {
      const stream = (ref instanceof PDFRef ? pdf.context.lookup(ref) : ref) as PDFRawStream;
      const raw = Buffer.from(stream.getContents());
      const decoded = stream.dict.toString().includes("FlateDecode")
        ? inflateSync(raw).toString("latin1")
        : raw.toString("latin1");
      for (const [, hex] of decoded.matchAll(/<([0-9A-Fa-f]+)>\s*Tj/g))
        parts.push(Buffer.from(hex!, "hex").toString("latin1"));
    }
  }
  return parts.join("\n");
}
