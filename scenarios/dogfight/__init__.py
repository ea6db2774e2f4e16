"""The dogfight: scenario files, one turn's adjudication, and its report (DF.*)."""
