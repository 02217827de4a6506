-- 0010: the process answering a generation (issue 35): host, pid and the pid's start time.
-- Another process never resumes a generation whose owner still runs.
ALTER TABLE generations ADD COLUMN owner TEXT;
