"""The bundled rules presets (TOML files, one per preset)."""
