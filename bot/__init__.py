"""The running Flip Flop bot: start-up, settings, storage and rendering."""
