"""The Temporal activities (activities/): web search, candidate scoring, publishing, the
standard tool response and the research plan and gather."""
