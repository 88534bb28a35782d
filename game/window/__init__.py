"""The window and its loop (``app``), the only reader of pygame events (``input``), putting a frame on
the window (``compositor``), loading the rules engine meanwhile (``loader``), sounds, the clipboard,
memory measures and the window benchmarks (``bench``).

On top: it may import every other package of ``game``; none imports it."""
