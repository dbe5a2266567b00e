/**
 * What an SBOM download must be before it is written into the user's project: the document the
 * chosen format promises (CycloneDX JSON, or CycloneDX XML), never an error page or a storage
 * service's XML error saved under a `.json` name.
 */
import type { SbomOutputFormat } from '../model/sbom';

export class SbomDocumentError extends Error {}

/** `.cdx.json` for CycloneDX JSON, `.cdx.xml` for CycloneDX XML (the CycloneDX naming). */
export function sbomFileName(projectName: string, ref: string, format: SbomOutputFormat | undefined): string {
  const safe = (text: string): string =>
    text
      .replace(/^refs\/heads\//, '')
      .replace(/[^\w.-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'sbom';
  const project = safe(projectName.split('/').pop() ?? projectName);
  return `${project}-${safe(ref)}.cdx.${format === 'SBOM_OUTPUT_FORMAT_CYCLONEDX' ? 'xml' : 'json'}`;
}

/** The document as text when it is what `format` promises; a SbomDocumentError saying what it is instead. */
export function checkSbomDocument(bytes: Buffer, format: SbomOutputFormat | undefined): string {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const start = text.trimStart().slice(0, 200);
  if (format === 'SBOM_OUTPUT_FORMAT_CYCLONEDX') {
    if (start.startsWith('<') && /cyclonedx/i.test(text.slice(0, 4096))) return text;
    throw new SbomDocumentError(`The download is not a CycloneDX XML document (it starts with ${JSON.stringify(start.slice(0, 40))}); nothing was saved.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SbomDocumentError(
      `The download is not JSON (it starts with ${JSON.stringify(start.slice(0, 40))}); nothing was saved. The link may have expired: export again.`,
    );
  }
  const bomFormat = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).bomFormat : undefined;
  if (bomFormat !== 'CycloneDX')
    throw new SbomDocumentError('The download is JSON but not a CycloneDX document (no "bomFormat": "CycloneDX"); nothing was saved.');
  return text;
}
