"""Operation Canuck (Brian Train, 2023): solitaire engine on the board-graph module (CN.*)."""
