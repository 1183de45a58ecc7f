"""The window of ``render_mode="human"``: a pygame window showing the observation, scaled."""

from __future__ import annotations

from typing import Any

import numpy as np

from emucore.errors import MissingExtraError


class ImageViewer:
    """Opens on the first frame; closing the window sets ``is_open`` to False."""

    def __init__(self, title: str, fps: float, scale: int = 2):
        try:
            import pygame
        except ImportError as exc:
            raise MissingExtraError("render_mode='human'", "pygame", "env") from exc
        self._pygame = pygame
        self.title = title
        self.scale = scale
        self.is_open = True
        self._screen: Any = None  # pygame's display Surface, made at the first frame

    def show(self, image: np.ndarray) -> None:
        pygame = self._pygame
        if not self.is_open:
            return
        height, width = image.shape[:2]
        size = (width * self.scale, height * self.scale)
        if self._screen is None or self._screen.get_size() != size:
            pygame.display.init()
            self._screen = pygame.display.set_mode(size)
            pygame.display.set_caption(self.title)
        surface = pygame.surfarray.make_surface(np.ascontiguousarray(image.swapaxes(0, 1)))
        self._screen.blit(pygame.transform.scale(surface, size), (0, 0))
        pygame.display.flip()
        for event in pygame.event.get():
            if event.type == pygame.QUIT:
                self.close()

    def close(self) -> None:
        if self._screen is not None:
            self._pygame.display.quit()
            self._screen = None
        self.is_open = False
