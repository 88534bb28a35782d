// Copies the cached still part of the board (colour and depth) into the stage where pieces move,
// so that they are hidden correctly behind standing ones. With COLOUR_ONLY: a picture's colour alone
// (overlay.py's PixelCopy), pixel for pixel over the whole target, or enlarged to fill a viewport.
#if defined VERTEX_SHADER
#ifdef COLOUR_ONLY
uniform vec2 u_scale;  // the viewport's size over the picture's (1: the picture fills the viewport)
#endif
out vec2 v_uv;
#ifdef COLOUR_ONLY
// the viewport as a rectangle of two triangles (6 vertices): llvmpipe's linear rasterizer takes such
// a pair as one rectangle and copies or enlarges a picture into it about 1 ms quicker at 1280x800
// than it fills one big triangle clipped to the viewport
const vec2 CORNERS[6] = vec2[](vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(0.0, 1.0),
                               vec2(0.0, 1.0), vec2(1.0, 0.0), vec2(1.0, 1.0));
#endif
void main() {
#ifdef COLOUR_ONLY
    vec2 p = CORNERS[gl_VertexID];
    v_uv = p * u_scale;  // the picture's coordinates: a texel's centre at each pixel's
#else
    vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);  // one triangle over the viewport
    v_uv = p;
#endif
    gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0);
}
#elif defined FRAGMENT_SHADER
uniform sampler2D u_image;
#ifndef COLOUR_ONLY
uniform sampler2D u_depth;
uniform ivec2 u_offset;  // the picture's pixel for the target's (0, 0)
#endif
in vec2 v_uv;
out vec4 f_color;
void main() {
#ifdef COLOUR_ONLY
    // a nearest-filtered lookup at interpolated coordinates: a software renderer (llvmpipe) does
    // it in about 80% of the time of a texelFetch at gl_FragCoord
    f_color = texture(u_image, v_uv);
#else
    // the cached picture is laid out like the target but for u_offset: pixel + offset = texel
    ivec2 p = ivec2(gl_FragCoord.xy) + u_offset;
    f_color = texelFetch(u_image, p, 0);
    gl_FragDepth = texelFetch(u_depth, p, 0).r;
#endif
}
#endif
