"""``ImageDetIter.draw_next``: decoded, augmented images with their boxes drawn (OpenCV)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import numpy as np

_STD = np.array([58.395, 57.12, 57.375])
_MEAN = np.array([123.68, 116.28, 103.53])


def _denormalize(image: np.ndarray, mean: Any, std: Any) -> np.ndarray:
    """Undo ``ColorNormalizeAug``: ``True`` means the ImageNet statistics."""
    if std is True:
        std = _STD
    if std is not None:  # in place: the arithmetic stays in the image's float32
        assert isinstance(std, np.ndarray) and std.shape[0] in (1, 3)
        image *= std
    if mean is True:
        mean = _MEAN
    if mean is not None:
        assert isinstance(mean, np.ndarray) and mean.shape[0] in (1, 3)
        image += mean
    return image


def _draw_boxes(
    cv2: Any,
    image: np.ndarray,
    label: np.ndarray,
    color: Any,
    thickness: int,
    id2labels: dict | None,
) -> None:
    height, width = image.shape[:2]
    for obj in label:
        x1 = int(obj[1] * width)
        if x1 < 0:  # padding rows (-1)
            continue
        y1, x2, y2 = int(obj[2] * height), int(obj[3] * width), int(obj[4] * height)
        box_color = color if color else np.random.rand(3) * 255
        cv2.rectangle(image, (x1, y1), (x2, y2), box_color, thickness)
        name = id2labels.get(int(obj[0])) if id2labels is not None else None
        if name is not None:
            font = cv2.FONT_HERSHEY_SIMPLEX
            text_h = cv2.getTextSize("%s" % name, font, 0.5, 2)[0][1]
            cv2.putText(
                image, "%s" % name, (x1 + 5, y1 + text_h + 5), font, 0.5, (255, 255, 255), 2
            )


def draw_next(
    it: Any,
    color: Any = None,
    thickness: int = 2,
    mean: Any = None,
    std: Any = None,
    clip: bool = True,
    waitKey: int | None = None,
    window_name: str = "draw_next",
    id2labels: dict | None = None,
) -> Iterator[np.ndarray]:
    """Yield the iterator's next images (BGR uint8 HWC) with their bounding boxes drawn.

    Parameters
    ----------
    color : tuple or None
        Box color in RGB; None draws each box in a random color.
    thickness : int
        Box border thickness.
    mean, std : True, numpy.ndarray or None
        Undo the color normalization (True: ImageNet statistics) for a better view.
    clip : bool
        Clip the pixels to [0, 255].
    waitKey : int or None
        Also show each image with ``cv2.imshow`` for that many milliseconds.
    window_name : str
        Window of ``cv2.imshow``.
    id2labels : dict or None
        Class id to name, written above each box.
    """
    import cv2

    while True:
        try:
            label, s = it.next_sample()
        except StopIteration:
            return
        data = it.imdecode(s)
        try:
            it.check_valid_image([data])
            label = it._parse_label(label)
        except RuntimeError as e:
            logging.debug("Invalid image, skipping:  %s", str(e))
            continue
        data, label = it.augmentation_transform(data, label)
        image = _denormalize(data.asnumpy(), mean, std)
        image = image[:, :, ::-1]  # RGB -> BGR
        if clip:
            image = np.clip(image, 0, 255)
        if color:
            # RGB -> BGR; MXNet 1.9.1 reverses the given color again for every image, so
            # boxes alternate between the two orders (kept for identical output)
            color = tuple(color)[::-1]
        image = np.ascontiguousarray(image.astype(np.uint8))
        _draw_boxes(cv2, image, label, color, thickness, id2labels)
        if waitKey is not None:
            cv2.imshow(window_name, image)
            cv2.waitKey(waitKey)
        yield image
