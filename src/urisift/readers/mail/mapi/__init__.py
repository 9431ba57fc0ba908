"""Mail as Outlook keeps it: ``.msg`` files, TNEF streams and PST files, read into one model of a
MAPI message (:mod:`.model`) and read from it by one reader (:mod:`.reading`)."""
