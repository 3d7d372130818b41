-- 14: the seats of a round that were away for some of it (the computer played for their members), as
-- JSON {seat: [indices of its transcript actions the computer made]}, beside the transcript (whose
-- format, docs/TRANSCRIPT.md, stays as it is). NULL: nobody was away, or a round stored before 14.
-- "Analyse my play" reviews only a member's own moves; /flipflop round marks the away seats with 💤.
ALTER TABLE rounds ADD COLUMN away TEXT;
