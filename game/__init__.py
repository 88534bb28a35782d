"""Everything a player sees and touches: window, input, controller, panel, renderer, storage."""
