import { get, operation, prefix, procedure } from 'vovk';
import { z } from 'zod';
import PostService from './post-service';

const PostSchema = z.object({
  id: z.int().meta({ description: 'The post ID' }),
  title: z.string().meta({ description: 'The post title' }),
  authorId: z.int().meta({ description: 'The ID of the user who wrote it' }),
});

@prefix('posts')
export default class PostController {
  @operation({ summary: 'List posts', description: 'Lists the posts, optionally only those of one author.' })
  @get()
  static listPosts = procedure({
    query: z.object({ authorId: z.string().regex(/^\d+$/).optional().meta({ description: 'Only the posts of this user' }) }),
    output: z.array(PostSchema),
  }).handle(async (req) => {
    const authorId = req.vovk.query().authorId;
    return PostService.listPosts(authorId === undefined ? undefined : Number(authorId));
  });

  @operation({ summary: 'Stream post titles', description: 'Streams the title of every post, one JSON line each.' })
  @get('titles')
  static streamTitles = procedure({
    iteration: z.object({ title: z.string().meta({ description: 'A post title' }) }),
  }).handle(async function* () {
    yield* PostService.streamTitles();
  });
}
