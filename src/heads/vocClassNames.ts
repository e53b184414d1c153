/** The 21 PASCAL VOC segmentation classes; label 0 is background. */
// prettier-ignore
export const VOC_CLASS_NAMES: readonly string[] = Object.freeze([
  'background', 'aeroplane', 'bicycle', 'bird', 'boat', 'bottle', 'bus', 'car', 'cat', 'chair',
  'cow', 'diningtable', 'dog', 'horse', 'motorbike', 'person', 'pottedplant', 'sheep', 'sofa',
  'train', 'tvmonitor',
]);
