"""The main window and its panes: the conversation list, the stream, the side tabs."""
