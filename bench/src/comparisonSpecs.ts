/**
 * One comparison: our model (a name, manifest or .onnx), the ONNX file Ultralytics runs (default:
 * the same file) and the IoU our NMS uses (an end-to-end export has its own inside).
 */
export interface Spec {
  readonly ours: string;
  readonly reference?: string;
  readonly iou?: number;
}

/** `model[=reference.onnx][@iou]`, comma-separated. */
export function parseSpecs(text: string): Spec[] {
  return text.split(',').map((item) => {
    const m = /^([^=@]+)(?:=([^@]+))?(?:@([0-9.]+))?$/.exec(item.trim());
    if (!m) throw new Error(`--models: '${item}' is not model[=reference.onnx][@iou]`);
    const iou = m[3] === undefined ? undefined : Number(m[3]);
    if (iou !== undefined && !(iou > 0 && iou <= 1))
      throw new Error(`--models: '${item}': IoU out of (0, 1]`);
    return {
      ours: m[1]!,
      ...(m[2] ? { reference: m[2] } : {}),
      ...(iou !== undefined ? { iou } : {}),
    };
  });
}
