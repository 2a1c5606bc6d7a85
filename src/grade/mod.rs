//! The grading kit: runs a student's program through the grading protocol, compares it with the
//! reference and scores it by the rubric in `grading/`.
