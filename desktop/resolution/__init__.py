"""The resolution list: the resolved steps as a table, and its selection link to the timeline."""
