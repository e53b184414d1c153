/**
 * The pinhole camera of a sensor_msgs/CameraInfo, turned around: from a pixel of the (distorted)
 * image to the ray through it. Aligned depth images are registered into the colour camera's own
 * pixels, distortion included, so a pixel is undistorted to its ray and the ray scaled by the
 * depth (REP-118: depth along the optical axis, z) gives the point.
 */

/** What we read of a CameraInfo. */
export interface CameraInfoFields {
  readonly width: number;
  readonly height: number;
  readonly distortionModel: string;
  /** Distortion coefficients, as many as the model has (plumb_bob: k1 k2 p1 p2 k3). */
  readonly d: readonly number[];
  /** Row-major 3x3 intrinsic matrix: fx 0 cx / 0 fy cy / 0 0 1. */
  readonly k: readonly number[];
}

export class CameraModelError extends Error {
  override readonly name = 'CameraModelError';
}

type Distortion =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'radtan';
      readonly k: readonly number[];
      readonly p1: number;
      readonly p2: number;
    }
  | { readonly kind: 'equidistant'; readonly k: readonly number[] };

const UNDISTORT_ITERATIONS = 20;

/** A camera's intrinsics at one image size, with its lens model. */
export class CameraModel {
  private constructor(
    readonly width: number,
    readonly height: number,
    readonly fx: number,
    readonly fy: number,
    readonly cx: number,
    readonly cy: number,
    private readonly distortion: Distortion,
  ) {}

  /**
   * From CameraInfo fields; refuses what cannot describe a camera (zero or non-finite focal
   * lengths, a K of the wrong length, an unknown distortion model with non-zero coefficients).
   */
  static fromCameraInfo(info: CameraInfoFields): CameraModel {
    const { k, d } = info;
    if (k.length !== 9 || !k.every(Number.isFinite)) {
      throw new CameraModelError(`CameraInfo.k must hold 9 finite numbers (got ${k.length})`);
    }
    const [fx, , cx, , fy, cy] = [k[0]!, k[1]!, k[2]!, k[3]!, k[4]!, k[5]!];
    if (!(fx > 0) || !(fy > 0)) {
      throw new CameraModelError(
        `CameraInfo.k has focal lengths fx=${fx}, fy=${fy}: the camera is not calibrated`,
      );
    }
    if (!(info.width > 0) || !(info.height > 0)) {
      throw new CameraModelError(`CameraInfo size ${info.width}x${info.height} is empty`);
    }
    if (!d.every(Number.isFinite))
      throw new CameraModelError('CameraInfo.d holds a non-finite value');
    const camera = new CameraModel(info.width, info.height, fx, fy, cx, cy, distortionOf(info));
    // Finite numbers can still make no camera: a denormal focal length or distortion
    // coefficients of 1e300 give infinite or NaN rays, and NaN centres in ~/detections_3d (found
    // by the over-DDS malformed flood). The corners and the centre are where rays are largest.
    for (const [u, v] of [
      [0, 0],
      [info.width - 1, 0],
      [0, info.height - 1],
      [info.width - 1, info.height - 1],
      [cx, cy],
    ] as const) {
      const [x, y] = camera.pixelToRay(u, v);
      if (!Number.isFinite(x) || !Number.isFinite(y)) {
        throw new CameraModelError(
          `CameraInfo (fx=${fx}, fy=${fy}, d=[${info.d.join(', ')}]) gives no finite ray at pixel (${u}, ${v})`,
        );
      }
    }
    return camera;
  }

  /**
   * The same camera at another image size (a depth or colour image of another resolution from the
   * same optical frame): pixel centres scale as (u + 0.5) * s - 0.5, so fx, fy scale and cx, cy
   * shift with them; distortion acts on the normalized ray and does not change.
   */
  scaledTo(width: number, height: number): CameraModel {
    if (width === this.width && height === this.height) return this;
    const sx = width / this.width;
    const sy = height / this.height;
    return new CameraModel(
      width,
      height,
      this.fx * sx,
      this.fy * sy,
      (this.cx + 0.5) * sx - 0.5,
      (this.cy + 0.5) * sy - 0.5,
      this.distortion,
    );
  }

  /** The undistorted normalized ray (x/z, y/z) through pixel (u, v). */
  pixelToRay(u: number, v: number): [number, number] {
    const xd = (u - this.cx) / this.fx;
    const yd = (v - this.cy) / this.fy;
    const dist = this.distortion;
    if (dist.kind === 'none') return [xd, yd];
    if (dist.kind === 'equidistant') return undistortEquidistant(xd, yd, dist.k);
    return undistortRadtan(xd, yd, dist);
  }

  /** The point at depth z (metres along the optical axis) seen at pixel (u, v). */
  backProject(u: number, v: number, z: number): [number, number, number] {
    const [x, y] = this.pixelToRay(u, v);
    return [x * z, y * z, z];
  }
}

function distortionOf(info: CameraInfoFields): Distortion {
  const d = info.d;
  if (d.every((c) => c === 0)) return { kind: 'none' };
  switch (info.distortionModel) {
    case 'plumb_bob':
    case 'rational_polynomial': {
      // plumb_bob: k1 k2 p1 p2 k3; rational_polynomial adds k4 k5 k6 in the denominator.
      const c = (i: number) => d[i] ?? 0;
      return { kind: 'radtan', k: [c(0), c(1), c(4), c(5), c(6), c(7)], p1: c(2), p2: c(3) };
    }
    case 'equidistant':
      return { kind: 'equidistant', k: [d[0] ?? 0, d[1] ?? 0, d[2] ?? 0, d[3] ?? 0] };
    default:
      throw new CameraModelError(
        `CameraInfo.distortion_model "${info.distortionModel}" with non-zero coefficients is not supported (plumb_bob, rational_polynomial, equidistant)`,
      );
  }
}

/**
 * Inverse of the Brown-Conrady model by fixed-point iteration (as OpenCV's undistortPoints):
 * converges in a few steps for the distortion of real lenses inside the image.
 */
function undistortRadtan(
  xd: number,
  yd: number,
  dist: { readonly k: readonly number[]; readonly p1: number; readonly p2: number },
): [number, number] {
  const [k1, k2, k3, k4, k5, k6] = dist.k as [number, number, number, number, number, number];
  const { p1, p2 } = dist;
  let x = xd;
  let y = yd;
  for (let i = 0; i < UNDISTORT_ITERATIONS; i++) {
    const r2 = x * x + y * y;
    const radial = (1 + r2 * (k1 + r2 * (k2 + r2 * k3))) / (1 + r2 * (k4 + r2 * (k5 + r2 * k6)));
    const dx = 2 * p1 * x * y + p2 * (r2 + 2 * x * x);
    const dy = p1 * (r2 + 2 * y * y) + 2 * p2 * x * y;
    x = (xd - dx) / radial;
    y = (yd - dy) / radial;
  }
  return [x, y];
}

/** Inverse of the equidistant (fisheye) model: solve theta_d(theta) by Newton's method. */
function undistortEquidistant(xd: number, yd: number, k: readonly number[]): [number, number] {
  const [k1, k2, k3, k4] = k as [number, number, number, number];
  const thetaD = Math.hypot(xd, yd);
  if (thetaD < 1e-12) return [xd, yd];
  let theta = thetaD;
  for (let i = 0; i < UNDISTORT_ITERATIONS; i++) {
    const t2 = theta * theta;
    const f = theta * (1 + t2 * (k1 + t2 * (k2 + t2 * (k3 + t2 * k4)))) - thetaD;
    const df = 1 + t2 * (3 * k1 + t2 * (5 * k2 + t2 * (7 * k3 + t2 * 9 * k4)));
    theta -= f / df;
  }
  const scale = Math.tan(theta) / thetaD;
  return [xd * scale, yd * scale];
}
