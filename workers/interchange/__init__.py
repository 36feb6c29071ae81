"""Interchange: a comp written as an editorial timeline (OTIO, FCP X XML, FCP 7 XML, EDL) or a
Lottie animation, and a timeline file read into a summary. Runs inside workers only: the files
read here are untrusted, and OpenTimelineIO never loads in the supervisor."""
