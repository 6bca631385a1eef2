"""Device choice: cuda, then mps, then cpu, overridable by name."""

from __future__ import annotations

import torch

__all__ = ["available_devices", "pick_device"]


def available_devices() -> list[str]:
    """Names of the torch devices usable here, best first (e.g. ``["cuda", "cpu"]``)."""
    names = []
    if torch.cuda.is_available():
        names.append("cuda")
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        names.append("mps")
    names.append("cpu")
    return names


def pick_device(preferred: str | None = None) -> torch.device:
    """Return ``preferred`` if given and available, else the best available device.

    Args:
        preferred: ``None`` or ``"auto"`` for automatic choice (cuda, then mps, then cpu), or a
            device name such as ``"cpu"``, ``"cuda"``, ``"cuda:1"``, ``"mps"``.

    Raises:
        ValueError: ``preferred`` names a device type that is not available on this machine.
    """
    if preferred in (None, "", "auto"):
        return torch.device(available_devices()[0])
    try:
        device = torch.device(preferred)
    except RuntimeError as exc:
        raise ValueError(f"device: {preferred!r} is not a torch device name") from exc
    if device.type not in available_devices():
        raise ValueError(f"device: {preferred!r} is not available here (available: {', '.join(available_devices())})")
    return device
