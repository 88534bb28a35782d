"""The game's asset files (``shaders/*.glsl``), shipped in the wheel as this package's data and read
through ``importlib.resources.files("assets")``, so that they are found wherever the game is
installed (pyproject.toml lists them under ``[tool.setuptools.package-data]``)."""
