"""Discord glue: slash commands, buttons and select menus, one cog per feature."""
