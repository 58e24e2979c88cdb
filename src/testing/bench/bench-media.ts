// The benchmark's large images: random bytes of 1 or 8 MiB, typed PNG, made once per size.

const images = new Map<number, Uint8Array<ArrayBuffer>>();

/** A PNG-typed body of `mib` MiB (random bytes; only its size matters), made once per size. */
export function largeImage(mib: number): Uint8Array<ArrayBuffer> {
  let image = images.get(mib);
  if (!image) {
    image = new Uint8Array(mib * 1024 * 1024);
    for (let i = 0; i < image.length; i += 65536) globalThis.crypto.getRandomValues(image.subarray(i, i + 65536));
    images.set(mib, image);
  }
  return image;
}
