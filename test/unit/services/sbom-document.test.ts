// What may be written into the user's project as an SBOM: only the document the format promises.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SbomDocumentError, checkSbomDocument, sbomFileName } from '../../../src/core/services/sbom-document';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

void describe('SBOM documents', () => {
  void test('CycloneDX JSON passes (a byte-order mark is dropped), XML passes for the XML format', () => {
    assert.equal(
      checkSbomDocument(bytes('\uFEFF{"bomFormat":"CycloneDX","specVersion":"1.6"}'), 'SBOM_OUTPUT_FORMAT_JSON'),
      '{"bomFormat":"CycloneDX","specVersion":"1.6"}',
    );
    const xml = '<?xml version="1.0"?>\n<bom xmlns="http://cyclonedx.org/schema/bom/1.5"></bom>';
    assert.equal(checkSbomDocument(bytes(xml), 'SBOM_OUTPUT_FORMAT_CYCLONEDX'), xml);
    assert.equal(checkSbomDocument(bytes('{"bomFormat":"CycloneDX"}'), undefined), '{"bomFormat":"CycloneDX"}', 'older history records: JSON');
  });

  void test('an error page, other JSON, or a storage error in XML is refused with what it is', () => {
    const refused = (text: string, format: Parameters<typeof checkSbomDocument>[1], pattern: RegExp): void =>
      assert.throws(
        () => checkSbomDocument(bytes(text), format),
        (e: unknown) => e instanceof SbomDocumentError && pattern.test(e.message),
      );
    refused('<html><body>Expired</body></html>', 'SBOM_OUTPUT_FORMAT_JSON', /not JSON \(it starts with "<html><body>Expired.*nothing was saved/);
    refused('{"error":"denied"}', 'SBOM_OUTPUT_FORMAT_JSON', /not a CycloneDX document/);
    refused('<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>', 'SBOM_OUTPUT_FORMAT_CYCLONEDX', /not a CycloneDX XML document/);
    refused('{"bomFormat":"CycloneDX"}', 'SBOM_OUTPUT_FORMAT_CYCLONEDX', /not a CycloneDX XML document/);
  });

  void test('file names: <project>-<ref>.cdx.json or .cdx.xml, safe for any file system', () => {
    assert.equal(sbomFileName('acme/shop', 'main', 'SBOM_OUTPUT_FORMAT_JSON'), 'shop-main.cdx.json');
    assert.equal(sbomFileName('acme/shop', 'refs/heads/release/2.0', 'SBOM_OUTPUT_FORMAT_CYCLONEDX'), 'shop-release-2.0.cdx.xml');
    assert.equal(sbomFileName('shop', 'feat: ü?*', undefined), 'shop-feat.cdx.json');
  });
});
